// The Node built-ins `require` returns (see require.js), by the name after
// `node:`. The loader's NODE_BUILTINS lists the same names (a Rust test checks).

import assertStrict from "./node/assert-strict.js";
import assert from "./node/assert.js";
import asyncHooks from "./node/async_hooks.js";
import buffer from "./node/buffer.js";
import childProcess from "./node/child_process.js";
import consoleModule from "./node/console.js";
import constants from "./node/constants.js";
import crypto from "./node/crypto.js";
import diagnosticsChannel from "./node/diagnostics_channel.js";
import dnsPromises from "./node/dns-promises.js";
import dns from "./node/dns.js";
import events from "./node/events.js";
import fsPromises from "./node/fs-promises.js";
import fs from "./node/fs.js";
import http from "./node/http.js";
import https from "./node/https.js";
import module, { builtinModules } from "./node/module.js";
import net from "./node/net.js";
import os from "./node/os.js";
import pathPosix from "./node/path-posix.js";
import path from "./node/path.js";
import perfHooks from "./node/perf_hooks.js";
import process from "./node/process.js";
import punycode from "./node/punycode.js";
import querystring from "./node/querystring.js";
import readlinePromises from "./node/readline-promises.js";
import readline from "./node/readline.js";
import streamPromises from "./node/stream-promises.js";
import streamWeb from "./node/stream-web.js";
import stream from "./node/stream.js";
import stringDecoder from "./node/string_decoder.js";
import timersPromises from "./node/timers-promises.js";
import timers from "./node/timers.js";
import tty from "./node/tty.js";
import url from "./node/url.js";
import utilTypes from "./node/util-types.js";
import util from "./node/util.js";
import v8 from "./node/v8.js";
import vm from "./node/vm.js";
import workerThreads from "./node/worker_threads.js";
import zlib from "./node/zlib.js";

export const BUILTINS = Object.freeze({
  __proto__: null,
  "assert": assert,
  "assert/strict": assertStrict,
  "async_hooks": asyncHooks,
  "buffer": buffer,
  "child_process": childProcess,
  "console": consoleModule,
  "constants": constants,
  "crypto": crypto,
  "diagnostics_channel": diagnosticsChannel,
  "dns": dns,
  "dns/promises": dnsPromises,
  "events": events,
  "fs": fs,
  "fs/promises": fsPromises,
  "http": http,
  "https": https,
  "module": module,
  "net": net,
  "os": os,
  "path": path,
  "path/posix": pathPosix,
  "perf_hooks": perfHooks,
  "process": process,
  "punycode": punycode,
  "querystring": querystring,
  "readline": readline,
  "readline/promises": readlinePromises,
  "stream": stream,
  "stream/promises": streamPromises,
  "stream/web": streamWeb,
  "string_decoder": stringDecoder,
  "timers": timers,
  "timers/promises": timersPromises,
  "tty": tty,
  "url": url,
  "util": util,
  "util/types": utilTypes,
  "v8": v8,
  "vm": vm,
  "worker_threads": workerThreads,
  "zlib": zlib,
});

builtinModules.push(...Object.keys(BUILTINS));
