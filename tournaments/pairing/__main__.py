"""``python -m tournaments.pairing FILE|-`` (see cli.py for the JSON interface)."""

import sys

from .cli import main

sys.exit(main())
