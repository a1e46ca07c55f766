"""WSGI entry point, for management tools that want one; the site itself is served over ASGI."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yourtrumps_site.settings")
application = get_wsgi_application()
