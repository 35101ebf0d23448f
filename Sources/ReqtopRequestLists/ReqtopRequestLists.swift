// Module ReqtopRequestLists: contents arrive with its issue.
