#!/bin/bash -e
# Inside the image: the app in /opt/solitaire-kiosk/venv (image-build/install-app.sh).
sh /tmp/solitaire-kiosk-install/install-app.sh /tmp/solitaire-kiosk-install/wheels /opt/solitaire-kiosk
rm -rf /tmp/solitaire-kiosk-install
