"""What the apps share of the site's plumbing, below all of them: the pool of database threads,
prepared statements, the base of every WebSocket consumer (`sockets.SiteSocket`) and its
limits, the path converters and the socket messages' text fields, sending a Celery task by
its name, the plural labels of scripts. It imports `accounts` (the person a socket speaks
for, their language) and no other app; the apps and `yourtrumps_site` import it."""
