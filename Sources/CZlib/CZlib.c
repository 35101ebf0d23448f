#include "CZlib.h"
