#!/usr/bin/env bash
# Starts a real one-node Slurm cluster on localhost for the executor's
# tests: munged, slurmctld and slurmd from Debian's slurm-wlm and munge,
# with a generated /etc/slurm/slurm.conf. Idempotent (a second run finds
# the daemons running and only checks them); run as root on Debian after
# installing the packages (scripts/deps.sh does both, then exports
# PARETO_TEST_SLURM=1).
#
# The configuration is the smallest that behaves like a cluster:
#   - no cgroups (ProctrackType=proctrack/linuxproc, TaskPlugin=task/none),
#     so it runs in a container without systemd;
#   - no slurmdbd (AccountingStorageType=accounting_storage/none): its
#     MariaDB server would cost more than the whole Slurm suite (44 s to
#     install mariadb-server and slurmdbd on the test machine, against
#     10 s for slurm-wlm and munge). The executor's tests also pass with
#     slurmdbd (tried once by hand; testdata/slurm/sacct-accounting.txt
#     is its sacct output). Finished
#     jobs are recorded by JobCompType=jobcomp/filetxt, which `sacct
#     --completion` reads (executor.Slurm falls back to it when sacct says
#     accounting is disabled), and slurmctld remembers them for MinJobAge
#     seconds (`scontrol show job`): 30 s, so that the tests also see a
#     job slurmctld has forgotten (purged within a minute after that);
#   - the node has the machine's CPUs and memory (slurmd -C), each CPU
#     shareable by 4 jobs (OverSubscribe=FORCE:4) so that the tests' jobs
#     run side by side on a 2-core machine;
#   - a job over its time limit is killed at once (OverTimeLimit=0,
#     KillWait=5) so that the time-limit test lasts about a minute (Slurm's
#     smallest limit).
set -euo pipefail
for cmd in munged slurmctld slurmd sinfo scontrol; do
	if ! command -v "$cmd" >/dev/null 2>&1; then
		echo "ci-slurm.sh: $cmd is not installed (apt-get install slurm-wlm munge)" >&2
		exit 1
	fi
done

# munge: the key is created by the package; the socket folder may not
# survive a reboot.
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
	mungekey --create --keyfile=/etc/munge/munge.key
	chown munge:munge /etc/munge/munge.key
	chmod 0400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	runuser -u munge -- /usr/sbin/munged
	for i in $(seq 20); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
		sleep 0.25
	done
fi

node=$(hostname -s)
hw=$(slurmd -C | head -1)
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
conf=$(
	cat <<EOF
# Written by executor/testdata/ci-slurm.sh: a one-node test cluster.
ClusterName=pareto-test
SlurmctldHost=$node(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
MinJobAge=30
OverTimeLimit=0
KillWait=5
ReturnToService=2
SlurmdTimeout=60
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE OverSubscribe=FORCE:4 State=UP
EOF
)
changed=
if [ ! -f /etc/slurm/slurm.conf ] || [ "$(cat /etc/slurm/slurm.conf)" != "$conf" ]; then
	printf '%s\n' "$conf" >/etc/slurm/slurm.conf
	changed=1
fi
install -d -o slurm -g slurm /var/lib/slurm/slurmctld /var/log/slurm
install -d /var/lib/slurm/slurmd

# A changed configuration (some settings need a restart, not scontrol
# reconfigure): stop the running daemons and start them again.
if [ -n "$changed" ] && { pgrep -x slurmctld || pgrep -x slurmd; } >/dev/null; then
	scontrol shutdown >/dev/null 2>&1 || true
	for i in $(seq 40); do
		pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null || break
		sleep 0.25
	done
fi
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd

# Ready when the node is idle (or already running jobs).
for i in $(seq 60); do
	state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
	case "$state" in
	idle* | mix* | alloc*) exit 0 ;;
	down* | drain*) scontrol update NodeName="$node" State=RESUME 2>/dev/null || true ;;
	esac
	sleep 0.5
done
echo "ci-slurm.sh: node $node is not up after 30 s (state: ${state:-none}); see /var/log/slurm/" >&2
exit 1
