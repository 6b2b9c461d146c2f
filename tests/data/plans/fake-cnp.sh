#!/bin/sh
# A stand-in for `cnp run` in the Plans-page test (tests/workbench/tst_planspage.cpp): speaks the CLI's
# progress protocol. Its argv goes to $FAKE_ARGS; --dry-run prints two argv lines; a run reports Base
# (ingesting $DEMO_TRACE as run Base-r1 with the real cnp, $REAL_CNP), then Base+ACCL, which fails; with
# $FAKE_HOLD set, Base+ACCL keeps running until SIGINT and is reported cancelled.
printf '%s\n' "$@" > "$FAKE_ARGS"
case " $* " in *" --dry-run "*)
  echo '["python3","train.py"]'
  echo '["python3","train.py","--compile"]'
  exit 0;;
esac
ev() { echo "{\"type\":\"run\",\"config\":\"$1\",\"repeat\":1,\"rank\":$2,\"state\":\"$3\",\"message\":\"$4\"}"; }
ev Base null starting ""
for r in 0 1 2 3 4 5 6 7; do ev Base $r running "step 3 of 20"; done
if [ -z "$FAKE_HOLD" ]; then
  "$REAL_CNP" ingest "$3" "$DEMO_TRACE" --run Base-r1 --config Base --quiet >/dev/null 2>&1 || exit 3
fi
ev Base null done "ingested Base-r1"
ev Base+ACCL 0 running "step 1 of 20"
if [ -n "$FAKE_HOLD" ]; then
  trap 'ev Base+ACCL null cancelled ""; echo "{\"type\":\"summary\",\"done\":1,\"failed\":0,\"skipped\":0,\"cancelled\":1}"; exit 2' INT
  while :; do sleep 0.05; done
fi
ev Base+ACCL null failed "exit status 1"
echo '{"type":"summary","done":1,"failed":1,"skipped":0,"cancelled":0}'
exit 2
