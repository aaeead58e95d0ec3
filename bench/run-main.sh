#!/usr/bin/env bash
# Runs one benchmark main of the bench module (bench/src/main/java), compiling it first:
#   bench/run-main.sh dev.jccl.comm.AllReduceBench [ranks] [provider] [bytes...]
#   bench/run-main.sh dev.jccl.comm.DirectReadsBench [ranks] [rounds] [iterations] [MiB...]   (shared vs private buffers, JCCL_DIRECT)
#   bench/run-main.sh dev.jccl.comm.RegistrationBench [shm|tcp]
#   bench/run-main.sh dev.jccl.verbs.shm.ShmPingPongBench [iterations]
#   bench/run-main.sh dev.jccl.verbs.tcp.TcpLoopbackBench
# AllReduceBench reads JCCL_NCHANNELS, JCCL_CHUNKSIZE, JCCL_BUFFSIZE, JCCL_ALGO as -D options: put
# them in JAVA_OPTS, e.g. JAVA_OPTS=-DJCCL_ALGO=ring.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
[ $# -ge 1 ] || { echo "usage: bench/run-main.sh MAIN_CLASS [ARGS...]" >&2; exit 2; }
(cd "$here" && ./mvnw -B -ntp -q -pl bench -am process-classes -DskipTests)
cp="$here/bench/target/classes:$(cat "$here/bench/target/classpath")"
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector ${JAVA_OPTS:-} \
  -cp "$cp" "$@"
