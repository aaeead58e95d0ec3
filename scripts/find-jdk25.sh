# Sourced by the project's scripts: sets JAVA_HOME to a JDK 25, or fails with a hint.
find_jdk25() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-* /usr/lib/jvm/java-25-* /usr/lib/jvm/jdk-25* /opt/java/openjdk; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
    if "$c/bin/java" -version 2>&1 | grep -Eq 'version "25'; then echo "$c"; return 0; fi
  done
  if command -v java >/dev/null && java -version 2>&1 | grep -Eq 'version "25'; then
    dirname "$(dirname "$(readlink -f "$(command -v java)")")"; return 0
  fi
  return 1
}
JAVA_HOME="$(find_jdk25)" || { echo "jccl: needs JDK 25 (set JAVA_HOME, or install temurin-25-jdk)" >&2; exit 1; }
export JAVA_HOME
# Maven's own libraries still call sun.misc.Unsafe; JDK 25 warns about it on every run.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
