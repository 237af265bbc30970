#!/bin/bash
# A throw-away Slurm controller for tests (munged, then slurmctld on a free port). Installs nothing.
#
#   slurmctl.sh start DIR   DIR/cluster holds the files `clusterbench export --format
#                           slurm-cluster` wrote (slurm.conf, gres.conf, topology.conf).
#                           Starts munged and slurmctld on a free port, with every node a
#                           CLOUD node (powered down, never marked DOWN), so that
#                           `sbatch --test-only` and `sbatch --hold` answer as on a real
#                           cluster. Prints "SLURM_CONF=DIR/etc/slurm.conf" on success.
#   slurmctl.sh start DIR --slurmd
#                           The same, but the nodes are real: one slurmd per node on this
#                           machine (slurmd -N NODE, each on its own port), so submitted jobs
#                           run here. Prints the SLURM_CONF line once every node is idle.
#   slurmctl.sh stop DIR    Stops exactly the daemons started for DIR, by their pid files
#                           (all at once: slurmctld takes a few seconds to shut down).
#
# Exit codes: 0 ok, 1 a daemon did not come up (its log is printed), 2 usage,
# 3 Slurm or munge is not installed.
set -u

usage() {
    echo "usage: $0 start DIR [--slurmd] | stop DIR" >&2
    exit 2
}

[ $# -eq 2 ] || [ $# -eq 3 ] || usage
action=$1
dir=$(cd "$2" 2>/dev/null && pwd) || { echo "$0: no such folder: $2" >&2; exit 2; }
slurmd_mode=0
if [ $# -eq 3 ]; then
    [ "$action" = start ] && [ "$3" = --slurmd ] || usage
    slurmd_mode=1
fi

# Sends SIGTERM to the daemon of each pid file, then waits for all of them together (5 s at
# most, then SIGKILL), and removes the pid files.
stop_pidfiles() {
    local file pid pids=()
    for file in "$@"; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null && pids+=("$pid")
        fi
    done
    for _ in $(seq 50); do
        local alive=0
        for pid in "${pids[@]}"; do
            kill -0 "$pid" 2>/dev/null && alive=1
        done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    done
    rm -f "$@"
}

if [ "$action" = stop ]; then
    shopt -s nullglob
    stop_pidfiles "$dir"/run/slurmd-*.pid "$dir/run/slurmctld.pid"
    stop_pidfiles "$dir/run/munged.pid"
    exit 0
fi
[ "$action" = start ] || usage

tools="munged slurmctld sinfo sbatch"
[ "$slurmd_mode" = 1 ] && tools="$tools slurmd"
for tool in $tools; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
        echo "$0: $tool is not installed (apt-get install slurmctld slurmd slurm-client munge)" >&2
        exit 3
    }
done
PATH=$PATH:/usr/sbin
for f in slurm.conf gres.conf topology.conf; do
    [ -f "$dir/cluster/$f" ] || { echo "$0: missing $dir/cluster/$f" >&2; exit 2; }
done

mkdir -p "$dir/etc" "$dir/run" "$dir/log" "$dir/state" "$dir/spool" "$dir/munge" "$dir/dev"
chmod 700 "$dir/munge"

nodes=$(grep -o '^NodeName=[^ ]*' "$dir/cluster/slurm.conf" | cut -d= -f2)
node_count=$(echo "$nodes" | wc -w)

# Free TCP ports, one for slurmctld and (with --slurmd) one per node: ask the kernel for
# them all at once so that they differ.
wanted=1
[ "$slurmd_mode" = 1 ] && wanted=$((1 + node_count))
ports=($(python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$wanted"))
port=${ports[0]}

# munge with its own key and socket.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" || { cat "$dir/log/munged.log" >&2; exit 1; }

# Fake GPU device files: slurmd would check them; slurmctld only needs the names.
gpus=$(grep -o 'File=/dev/nvidia\[0-[0-9]*\]' "$dir/cluster/gres.conf" | grep -o '[0-9]*\]$' |
       tr -d ']' | sort -n | tail -1)
for i in $(seq 0 "${gpus:-0}"); do
    [ -e "$dir/dev/nvidia$i" ] || mknod "$dir/dev/nvidia$i" c 195 "$i" 2>/dev/null ||
        touch "$dir/dev/nvidia$i"
done
sed "s#File=/dev/nvidia#File=$dir/dev/nvidia#" "$dir/cluster/gres.conf" > "$dir/etc/gres.conf"
cp "$dir/cluster/topology.conf" "$dir/etc/topology.conf"

{
    echo "ClusterName=cbtest"
    echo "SlurmctldHost=localhost"
    echo "SlurmctldPort=$port"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "AuthInfo=socket=$dir/munge/munge.sock"
    echo "StateSaveLocation=$dir/state"
    echo "SlurmdSpoolDir=$dir/spool/%n"
    echo "SlurmctldPidFile=$dir/run/slurmctld.pid"
    echo "SlurmdPidFile=$dir/run/slurmd-%n.pid"
    echo "SlurmctldLogFile=$dir/log/slurmctld.log"
    echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
    echo "ProctrackType=proctrack/pgid"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "MpiDefault=none"
    echo "MailProg=/bin/true"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core_Memory"
    echo "TopologyPlugin=topology/tree"
    echo "SlurmdParameters=config_overrides"
    echo "SchedulerParameters=bf_interval=2"
    if [ "$slurmd_mode" = 1 ]; then
        # Real nodes: each node's slurmd listens on its own port of this machine.
        i=1
        while IFS= read -r line; do
            if [[ "$line" =~ ^NodeName=([^ ]+) ]]; then
                echo "$line NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports[$i]}"
                i=$((i + 1))
            else
                echo "$line"
            fi
        done < "$dir/cluster/slurm.conf"
    else
        echo "SuspendProgram=/bin/true"
        echo "ResumeProgram=/bin/true"
        echo "SuspendTime=600"
        echo "PrivateData=cloud"
        echo "ReturnToService=2"
        # The exported node and partition lines, each node a CLOUD node on this machine.
        sed -E 's/^(NodeName=[^ ]+.*)$/\1 NodeHostname=localhost NodeAddr=127.0.0.1 State=CLOUD/' \
            "$dir/cluster/slurm.conf"
    fi
} > "$dir/etc/slurm.conf"

export SLURM_CONF="$dir/etc/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || { cat "$dir/log/slurmctld.log" >&2; exit 1; }
if [ "$slurmd_mode" = 0 ]; then
    for _ in $(seq 100); do
        if timeout 5 sinfo -h >/dev/null 2>&1; then
            echo "SLURM_CONF=$SLURM_CONF"
            exit 0
        fi
        sleep 0.1
    done
    echo "$0: slurmctld did not answer; log follows" >&2
    cat "$dir/log/slurmctld.log" >&2
    exit 1
fi

# One slurmd per node; wait until every node is idle (registered and usable).
for node in $nodes; do
    mkdir -p "$dir/spool/$node"
    slurmd -N "$node" -f "$SLURM_CONF" || {
        echo "$0: slurmd for $node did not start; its log follows" >&2
        cat "$dir/log/slurmd-$node.log" >&2
        exit 1
    }
done
for _ in $(seq 200); do
    idle=$(timeout 5 sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)
    if [ "$idle" = "$node_count" ]; then
        echo "SLURM_CONF=$SLURM_CONF"
        exit 0
    fi
    sleep 0.1
done
echo "$0: not every slurmd registered; sinfo and the logs follow" >&2
sinfo -N >&2
tail -n 20 "$dir"/log/slurmd-*.log "$dir/log/slurmctld.log" >&2
exit 1
