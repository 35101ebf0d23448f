// Module ReqtopInspector: contents arrive with its issue.
