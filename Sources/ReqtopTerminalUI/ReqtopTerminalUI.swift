// Module ReqtopTerminalUI: contents arrive with its issue.
