"""``python -m tournaments.pairing FILE|-`` (see cli.py for the JSON interface)."""

import sys

from tournaments.pairing.cli import main

sys.exit(main())
