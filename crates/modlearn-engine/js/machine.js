// The candidate's machine, as the engine reaches it: every file system call and command of a
// mod goes to a real sandboxed machine (modlearn-machine) through the engine's one op, as a
// packed message (the JSON header's length, the header, the payload's bytes). The kernel there
// resolves paths, links included; nothing here decides what a path names. The protocol's
// requests and replies are `modlearn_machine::protocol`'s (MachineRequest, MachineReply).

import { clock } from "./platform.js";
import { utf8Decode, utf8Encode } from "./web/encoding.js";

/** The op, set by host.js (a host module cannot import the deno_core handle). */
export const link = { call: null };

const EMPTY = new Uint8Array(0);
// Taken before any mod runs: a mod may replace what the host would call later.
const { parse, stringify } = JSON;
const { min } = Math;
const typedSet = Object.getPrototypeOf(Uint8Array.prototype).set;
const typedSubarray = Object.getPrototypeOf(Uint8Array.prototype).subarray;
const { apply } = Reflect;

function littleEndian(bytes, offset) {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}

/**
 * Sends `request` (a MachineRequest: `{ op, ... }`) with `payload` (bytes) and answers
 * `{ reply, payload }`: the MachineReply and its bytes. No machine: an `unavailable` reply.
 */
export function machineCall(request, payload = EMPTY) {
  const header = utf8Encode(stringify({ at: clock.now, request }));
  const packed = new Uint8Array(4 + header.length + payload.length);
  packed[0] = header.length & 0xff;
  packed[1] = (header.length >>> 8) & 0xff;
  packed[2] = (header.length >>> 16) & 0xff;
  packed[3] = (header.length >>> 24) & 0xff;
  apply(typedSet, packed, [header, 4]);
  apply(typedSet, packed, [payload, 4 + header.length]);
  const answer = link.call === null ? EMPTY : new Uint8Array(link.call(packed));
  if (answer.length < 4) return { reply: { reply: "unavailable", reason: "this engine has no machine" }, payload: EMPTY };
  const length = min(littleEndian(answer, 0), answer.length - 4);
  const reply = parse(utf8Decode(apply(typedSubarray, answer, [4, 4 + length])));
  return { reply, payload: apply(typedSubarray, answer, [4 + length]) };
}

/** Linux's open(2) flags, as node:fs's `constants` has them. */
export const O = Object.freeze({
  RDONLY: 0, WRONLY: 1, RDWR: 2, CREAT: 0o100, EXCL: 0o200, NOCTTY: 0o400, TRUNC: 0o1000, APPEND: 0o2000,
  NONBLOCK: 0o4000, DSYNC: 0o10000, DIRECTORY: 0o200000, NOFOLLOW: 0o400000, NOATIME: 0o1000000, SYNC: 0o4010000,
});
