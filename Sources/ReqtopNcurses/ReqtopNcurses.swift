// Module ReqtopNcurses: contents arrive with its issue.
