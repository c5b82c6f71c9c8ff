import os

from django.core.wsgi import get_wsgi_application

from .startup import or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = or_exit(get_wsgi_application)
