#!/bin/sh
# Regenerates docs/results/ (run from the repository root). Reduced sizes: see README.md here.
set -e
RB="${RB:-robust-boosting}"
$RB benchmark quick --out docs/results/quick
$RB benchmark splboost-synthetic --out docs/results/splboost-synthetic
$RB benchmark savageboost-table4 --out docs/results/savageboost-table4
$RB benchmark rilboost-small-sample --repetitions 100 --epsilon-grid 0:0.5:0.1 --out docs/results/rilboost-small-sample
$RB benchmark rilboost-small-sample --datasets rilboost-gaussian --repetitions 100 --out docs/results/rilboost-fig13
$RB benchmark docs/results/configs/rilboost-fig13-sigma2.json --out docs/results/rilboost-fig13-sigma2
$RB benchmark docs/results/configs/rilboost-fig13-gamma2.json --out docs/results/rilboost-fig13-gamma2
$RB benchmark splboost-uci --repetitions 2 --lambda-grid 1:6:1 --out docs/results/splboost-uci
