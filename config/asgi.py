import os

from django.core.asgi import get_asgi_application

from .startup import or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = or_exit(get_asgi_application)
