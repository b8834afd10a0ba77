import sys

from kiosk.commands.cli import main

sys.exit(main())
