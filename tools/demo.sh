#!/bin/sh
# demo.sh — the README's main job. Usage: tools/demo.sh path/to/dhm
set -eu
DHM=${1:-build/dhm}
echo "== dhm play: 1000 games, three simple players against two random players"
"$DHM" play --players simple,simple,simple,random,random --games 1000 --seed 1
