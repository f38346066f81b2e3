#!/bin/sh
# Reruns the experiments behind docs/results/ at the sizes committed there (run from the
# repository root; about 8.5 h of one core), then rewrites the reports and claims.md.
# The presets' defaults are the papers' sizes (for a cluster: --dask-scheduler ADDRESS).
set -e
RB="${RB:-robust-boosting}"
D=docs/results
$RB benchmark $D/configs/rilboost-larger-n.json --repetitions 100 --n-jobs 2 --results $D/rilboost-small-sample/results.sqlite --no-report
$RB benchmark $D/configs/rilboost-small-sample.json --repetitions 100 --n-jobs 2 --results $D/rilboost-small-sample/results.sqlite --no-report
$RB benchmark splboost-synthetic --repetitions 250 --n-jobs 1 --out $D/splboost-synthetic --no-report
$RB benchmark $D/configs/savageboost-sensitivity.json --n-jobs 1 --results $D/savageboost-table4/results.sqlite --no-report
$RB benchmark savageboost-table4 --repetitions 10 --n-jobs 1 --out $D/savageboost-table4 --no-report
$RB benchmark quick --n-jobs 1 --out $D/quick --no-report
$RB benchmark splboost-uci --repetitions 50 --datasets splboost-pima,splboost-st-german-credit,splboost-titanic --lambda-grid 1:6:0.5 --n-jobs 2 --out $D/splboost-uci --no-report
$RB benchmark splboost-uci --repetitions 50 --datasets splboost-pima,splboost-st-german-credit,splboost-titanic --lambda-grid 1:6:0.5 --weak-learner hist-stump --n-jobs 2 --out $D/splboost-uci-stumps --no-report
sh $D/reports.sh
