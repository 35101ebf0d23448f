// Module ReqtopTestServer: contents arrive with its issue.
