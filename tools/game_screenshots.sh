#!/usr/bin/env bash
# Every game's dealt table at 800x480 and 720x1280 (English), into docs/screenshots/games/:
# the evidence that each declared layout fits a kiosk screen and reads well.
#   tools/game_screenshots.sh [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-5}
out=docs/screenshots/games
mkdir -p "$out"
export SDL_VIDEODRIVER=offscreen
for game in $(python3 -m kiosk games --json | python3 -c \
        'import json, sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))'); do
    for size in 800x480 720x1280; do
        python3 -m kiosk snapshot "$game" --seed "$seed" --size "$size" --lang en \
            --out "$out/$game-$size.png" >/dev/null
    done
done
echo "wrote $(find "$out" -name '*.png' | wc -l) pictures to $out"
