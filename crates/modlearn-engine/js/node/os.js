// node:os: fixed values of the virtual machine (documented in
// ARCHITECTURE.md), the same on every host.

import { clock, VIRTUAL_EPOCH_MS } from "../platform.js";
import { MACHINE, world } from "../world.js";

const cpu = { model: "modlearn virtual CPU", speed: 2400, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20 };

export const EOL = "\n";
export const devNull = "/dev/null";
export const arch = () => "x64";
export const machine = () => "x86_64";
export const platform = () => "linux";
export const type = () => "Linux";
export const release = () => "6.8.0-modlearn";
export const version = () => "#1 SMP PREEMPT_DYNAMIC";
export const hostname = () => MACHINE.hostname;
export const homedir = () => world.env.HOME ?? MACHINE.home;
export const tmpdir = () => (world.env.TMPDIR ?? MACHINE.tmp).replace(/(.)\/$/, "$1");
export const endianness = () => "LE";
export const uptime = () => 3600 + Math.floor((clock.now - VIRTUAL_EPOCH_MS) / 1000);
export const loadavg = () => [0, 0, 0];
export const totalmem = () => 8 * 1024 ** 3;
export const freemem = () => 4 * 1024 ** 3;
export const availableParallelism = () => 2;
export const cpus = () => [structuredClone(cpu), structuredClone(cpu)];
export const networkInterfaces = () => ({
  lo: [{ address: "127.0.0.1", netmask: "255.0.0.0", family: "IPv4", mac: "00:00:00:00:00:00", internal: true, cidr: "127.0.0.1/8" }],
});
export const userInfo = () => ({ uid: MACHINE.uid, gid: MACHINE.gid, username: MACHINE.user, homedir: homedir(), shell: MACHINE.shell });
export const getPriority = () => 0;
export const setPriority = () => {};
export const constants = Object.freeze({ signals: Object.freeze({ ...SIGNALS }), errno: Object.freeze({}), priority: Object.freeze({}) });

export default {
  EOL, devNull, arch, machine, platform, type, release, version, hostname, homedir, tmpdir, endianness, uptime,
  loadavg, totalmem, freemem, availableParallelism, cpus, networkInterfaces, userInfo, getPriority, setPriority, constants,
};
