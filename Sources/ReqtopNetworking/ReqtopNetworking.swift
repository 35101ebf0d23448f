// Module ReqtopNetworking: contents arrive with its issue.
