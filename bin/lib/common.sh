# shellcheck shell=bash
#
# Sourced by the scripts in bin/: finds a JDK 22+, installs MPJ Express, builds the project
# when it is out of date and launches its Java programs (which make the MPJ_HOME).
# Defines variables and functions only; nothing runs until a script calls kupl_setup or
# one of the kupl_* functions.

KUPL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# java.lang.foreign is final since Java 22.
KUPL_MIN_JAVA=22

# Where Debian's libmpj-java puts MPJ Express 0.44.
MPJ_LIB=/usr/share/mpj/lib

# The MPJ_HOME that MPJ Express's starter needs (Debian's own layout lacks log4j and friends in lib/);
# mpjrun.MpjHome makes it (kupl_java). KUPL_MPJ_HOME in the environment names another, complete one: tests
# give the MPJ_HOME of a daemon of their own, whose conf/mpjexpress.conf has the ports it listens on.
KUPL_MPJ_HOME="${KUPL_MPJ_HOME:-$KUPL_ROOT/target/mpj-home}"

# What the build leaves for launching the samples: their classes, and the rest of their class path.
KUPL_SAMPLES_TARGET="$KUPL_ROOT/samples/target"
KUPL_SAMPLES_RUNTIME_CLASSPATH="$KUPL_SAMPLES_TARGET/runtime.classpath"
# Touched when a build by these scripts starts (and kept only if it succeeds).
KUPL_BUILD_STAMP="$KUPL_ROOT/target/build.stamp"

kupl_die()
{
    echo "${0##*/}: $*" >&2
    exit 1
}

# Prints the feature release (8, 17, 25, ...) of the JDK in directory $1, or nothing if it is not a JDK.
kupl_jdk_feature()
{
    local home=$1 version=
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
    if [ -f "$home/release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)"/\1/p' "$home/release")
    fi
    if [ -z "$version" ]; then
        version=$("$home/bin/java" -version 2>&1 | sed -n '1s/^[^"]*"\([^"]*\)".*/\1/p')
    fi
    version=${version#1.}
    version=${version%%[!0-9]*}
    echo "$version"
}

# Sets JAVA_HOME to a JDK 22+ and puts it first on PATH: JAVA_HOME itself if it is one, else the
# newest JDK under /usr/lib/jvm. MPJ Express's starter launches the ranks' JVM as plain `java`
# from PATH, so PATH matters as much as JAVA_HOME.
kupl_find_jdk()
{
    local feature best= best_feature=0 candidate
    if [ -n "${JAVA_HOME:-}" ]; then
        feature=$(kupl_jdk_feature "$JAVA_HOME")
        if [ "${feature:-0}" -ge "$KUPL_MIN_JAVA" ]; then
            best=$JAVA_HOME
        else
            echo "${0##*/}: JAVA_HOME=$JAVA_HOME is not a JDK $KUPL_MIN_JAVA or newer; looking under /usr/lib/jvm" >&2
        fi
    fi
    if [ -z "$best" ]; then
        for candidate in /usr/lib/jvm/*; do
            feature=$(kupl_jdk_feature "$candidate")
            if [ "${feature:-0}" -ge "$KUPL_MIN_JAVA" ] && [ "$feature" -gt "$best_feature" ]; then
                best=$candidate
                best_feature=$feature
            fi
        done
    fi
    [ -n "$best" ] || kupl_die "no JDK $KUPL_MIN_JAVA or newer found (JAVA_HOME=${JAVA_HOME:-unset}, nor under" \
        "/usr/lib/jvm). Install one, e.g. 'apt-get install openjdk-25-jdk', or set JAVA_HOME to one."
    export JAVA_HOME=$best
    export PATH="$JAVA_HOME/bin:$PATH"
}

# Installs Debian's libmpj-java (MPJ Express 0.44) if it is missing; only root can.
kupl_ensure_mpj()
{
    [ -f "$MPJ_LIB/mpj.jar" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        kupl_die "MPJ Express is not installed ($MPJ_LIB/mpj.jar is missing). Install it as root:" \
            "'apt-get update && apt-get install -y libmpj-java', then run this again."
    fi
    echo "${0##*/}: installing MPJ Express (Debian package libmpj-java)" >&2
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libmpj-java ||
        kupl_die "could not install libmpj-java with apt-get (see above)"
    [ -f "$MPJ_LIB/mpj.jar" ] || kupl_die "libmpj-java is installed, but $MPJ_LIB/mpj.jar is still missing"
}

# Prints the samples' class path for MPJ Express's starter (their classes, then kupl-launcher, kupl-device,
# kupl-engine and the rest, as the build listed them), or nothing if the build has not made it yet.
kupl_samples_classpath()
{
    [ -d "$KUPL_SAMPLES_TARGET/classes" ] && [ -s "$KUPL_SAMPLES_RUNTIME_CLASSPATH" ] || return 0
    echo "$KUPL_SAMPLES_TARGET/classes:$(cat "$KUPL_SAMPLES_RUNTIME_CLASSPATH")"
}

# Whether the build's output is missing, or a source or POM changed since the last build by these scripts.
kupl_build_needed()
{
    local classpath artifact entries
    [ -f "$KUPL_BUILD_STAMP" ] || return 0
    [ -n "$(kupl_agent_jar)" ] || return 0
    classpath=$(kupl_samples_classpath)
    [ -n "$classpath" ] || return 0
    IFS=: read -r -a entries <<< "$classpath"
    for artifact in "${entries[@]}"; do
        [ -e "$artifact" ] || return 0
    done
    # Not the jars' times: Maven leaves a module's jar untouched when that module did not change.
    [ -n "$(find "$KUPL_ROOT" \( -path "$KUPL_ROOT/.git" -o -path '*/target' \) -prune -o \
        \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$KUPL_BUILD_STAMP" -print -quit)" ]
}

# Runs Maven with the JDK found by kupl_find_jdk.
kupl_mvn()
{
    command -v mvn >/dev/null || kupl_die "Maven is not installed: 'apt-get install -y maven', then run this again."
    # Maven 3.8's own Guava warns about sun.misc.Unsafe on JDK 24+; the option exists since 23.
    local opts=${MAVEN_OPTS:-}
    if [ "$(kupl_jdk_feature "$JAVA_HOME")" -ge 23 ]; then
        opts="$opts --sun-misc-unsafe-memory-access=allow"
    fi
    (cd "$KUPL_ROOT" && MAVEN_OPTS=$opts mvn -B "$@")
}

# Builds the samples and what they need (without running the tests) if they are missing or out of date.
kupl_build()
{
    kupl_build_needed || return 0
    echo "${0##*/}: building with Maven (JAVA_HOME=$JAVA_HOME)" >&2
    # Stamped with the time the build started, so that an edit made during the build is not missed.
    mkdir -p "${KUPL_BUILD_STAMP%/*}"
    local stamp
    stamp=$(mktemp "$KUPL_BUILD_STAMP.XXXXXX")
    if ! kupl_mvn -q package -DskipTests -pl samples,mpjdev-kupl/agent -am; then
        rm -f "$stamp"
        kupl_die "the build failed (see above)"
    fi
    mv "$stamp" "$KUPL_BUILD_STAMP"
}

# Runs class $2 of the build's class path $1 (arguments after it go to the program) with the JDK found by
# kupl_find_jdk, with MPJ_HOME exported as $KUPL_MPJ_HOME: the Java side (mpjrun.MpjHome, the one recipe)
# makes it there when it is missing, so every script and launcher shares one MPJ_HOME.
#
# The agent's jar, when the build made it, is named by -Dkupl.agent.jar: -dev shm ranks get it as
# -javaagent, so that MPJ Express's collectives run through shared memory.
kupl_java()
{
    local classpath=$1 main=$2 agent
    shift 2
    export MPJ_HOME=$KUPL_MPJ_HOME
    agent=
    # KUPL_WITHOUT_AGENT=1: the caller's class path holds the classes under test, which an agent jar left by
    # an earlier build would shadow in the ranks (it carries its own copy of the device and the engine).
    [ -n "${KUPL_WITHOUT_AGENT:-}" ] || agent=$(kupl_agent_jar)
    exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dmpi.rma.kupl.home="$KUPL_MPJ_HOME" \
        ${agent:+"-Dkupl.agent.jar=$agent"} -cp "$classpath" "$main" "$@"
}

# Prints the kupl agent's jar as the build left it (any version), or nothing if there is none.
kupl_agent_jar()
{
    local jar
    for jar in "$KUPL_ROOT"/mpjdev-kupl/agent/target/kupl-agent-*.jar; do
        case $jar in
            */original-* | *-tests.jar) ;;
            *) [ -f "$jar" ] && { echo "$jar"; return 0; } ;;
        esac
    done
    return 0
}

# Builds module $1 (and what it needs, without running the tests) if its classes or the class path its
# build writes to target/runtime.classpath are missing, or a source or POM changed since; prints that
# class path, the module's classes first.
kupl_module_classpath()
{
    local module=$1 classes runtime
    classes=$KUPL_ROOT/$module/target/classes
    runtime=$KUPL_ROOT/$module/target/runtime.classpath
    if [ ! -d "$classes" ] || [ ! -s "$runtime" ] || [ -z "$(kupl_agent_jar)" ] || [ -n "$(find "$KUPL_ROOT" \
        \( -path "$KUPL_ROOT/.git" -o -path '*/target' \) -prune -o \
        \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$runtime" -print -quit)" ]; then
        echo "${0##*/}: building $module with Maven (JAVA_HOME=$JAVA_HOME)" >&2
        # The agent too: the jobs the module starts give it to -dev shm ranks (see kupl_java).
        kupl_mvn -q package -DskipTests -pl "$module,mpjdev-kupl/agent" -am >&2 || kupl_die "the build failed (see above)"
        touch "$runtime"
    fi
    echo "$classes:$(cat "$runtime")"
}

# Builds each module of this project whose classes a class path argument of "$@" names (the word after -cp
# or -classpath, e.g. -cp benchmarks/target/classes), as kupl_module_classpath does for bin/bench, so that a
# command naming a module's classes works on a fresh clone. Paths are relative to the working directory, as
# the launcher reads them; the samples are left to kupl_build, other paths to the program.
kupl_build_classpath_modules()
{
    local want= arg entry module entries
    for arg in "$@"; do
        if [ -n "$want" ]; then
            want=
            IFS=: read -r -a entries <<< "$arg"
            for entry in "${entries[@]}"; do
                module=$(kupl_module_of_classes "$entry")
                [ -z "$module" ] || kupl_module_classpath "$module" >/dev/null
            done
        elif [ "$arg" = -cp ] || [ "$arg" = -classpath ]; then
            want=1
        fi
    done
}

# Prints the module (benchmarks, conformance) whose target/classes directory $1 is, if it is a module of this
# project that writes its run-time class path (what kupl_module_classpath needs), the samples excepted; else
# nothing.
kupl_module_of_classes()
{
    local path=$1 module
    [[ $path == /* ]] || path="$PWD/$path"
    path=$(realpath -m -- "$path")
    [[ $path == "$KUPL_ROOT"/*/target/classes ]] || return 0
    module=${path#"$KUPL_ROOT"/}
    module=${module%/target/classes}
    if [ "$module" != samples ] && [ -f "$KUPL_ROOT/$module/pom.xml" ] &&
        grep -q runtime.classpath "$KUPL_ROOT/$module/pom.xml"; then
        echo "$module"
    fi
    return 0
}

# Everything a script needs before it launches a sample: JDK, MPJ Express, build.
kupl_setup()
{
    kupl_find_jdk
    kupl_ensure_mpj
    kupl_build
}
