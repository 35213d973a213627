// node:dns/promises: `dns.promises` (see dns.js), the same object as in Bun.

import { promises } from "./dns.js";

export const {
  NODATA, FORMERR, SERVFAIL, NOTFOUND, NOTIMP, REFUSED, BADQUERY, BADNAME, BADFAMILY, BADRESP, CONNREFUSED, TIMEOUT, EOF, FILE,
  NOMEM, DESTRUCTION, BADSTR, BADFLAGS, NONAME, BADHINTS, NOTINITIALIZED, LOADIPHLPAPI, ADDRGETNETWORKPARAMS, CANCELLED,
  lookup, lookupService, resolve, resolve4, resolve6, resolveAny, resolveSrv, resolveTxt, resolveSoa, resolveNaptr, resolveMx,
  resolveCaa, resolveNs, resolvePtr, resolveCname, reverse, Resolver, getDefaultResultOrder, setDefaultResultOrder, getServers,
  setServers,
} = promises;
export default promises;
