#!/bin/bash
# A throw-away Slurm controller for tests (recipe: shared/docs/SLURM-CI.md). Installs nothing.
#
#   slurmctl.sh start DIR   DIR/cluster holds the files `clusterbench export --format
#                           slurm-cluster` wrote (slurm.conf, gres.conf, topology.conf).
#                           Starts munged and slurmctld on a free port, with every node a
#                           CLOUD node (powered down, never marked DOWN), so that
#                           `sbatch --test-only` and `sbatch --hold` answer as on a real
#                           cluster. Prints "SLURM_CONF=DIR/etc/slurm.conf" on success.
#   slurmctl.sh stop DIR    Stops exactly the daemons started for DIR, by their pid files.
#
# Exit codes: 0 ok, 1 a daemon did not come up (its log is printed), 2 usage,
# 3 Slurm or munge is not installed.
set -u

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 2
}

[ $# -eq 2 ] || usage
action=$1
dir=$(cd "$2" 2>/dev/null && pwd) || { echo "$0: no such folder: $2" >&2; exit 2; }

stop_pidfile() {
    local file=$1 pid
    [ -f "$file" ] || return 0
    pid=$(cat "$file")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$file"
}

if [ "$action" = stop ]; then
    stop_pidfile "$dir/run/slurmctld.pid"
    stop_pidfile "$dir/run/munged.pid"
    exit 0
fi
[ "$action" = start ] || usage

for tool in munged slurmctld sinfo sbatch; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
        echo "$0: $tool is not installed (apt-get install slurmctld slurm-client munge)" >&2
        exit 3
    }
done
PATH=$PATH:/usr/sbin
for f in slurm.conf gres.conf topology.conf; do
    [ -f "$dir/cluster/$f" ] || { echo "$0: missing $dir/cluster/$f" >&2; exit 2; }
done

mkdir -p "$dir/etc" "$dir/run" "$dir/log" "$dir/state" "$dir/spool" "$dir/munge" "$dir/dev"
chmod 700 "$dir/munge"

# A free TCP port for slurmctld: ask the kernel for one.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

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
    echo "SuspendProgram=/bin/true"
    echo "ResumeProgram=/bin/true"
    echo "SuspendTime=600"
    echo "PrivateData=cloud"
    echo "ReturnToService=2"
    # The exported node and partition lines, each node a CLOUD node on this machine.
    sed -E 's/^(NodeName=[^ ]+.*)$/\1 NodeHostname=localhost NodeAddr=127.0.0.1 State=CLOUD/' \
        "$dir/cluster/slurm.conf"
} > "$dir/etc/slurm.conf"

export SLURM_CONF="$dir/etc/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || { cat "$dir/log/slurmctld.log" >&2; exit 1; }
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
