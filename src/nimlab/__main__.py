"""``python -m nimlab`` runs the command line."""

import sys

from nimlab.cli import main

sys.exit(main())
