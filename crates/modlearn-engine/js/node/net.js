// node:net without a network (see network.js).
import { netModule } from "./network.js";
const net = netModule();
export default net;
export const { connect, createConnection, createServer, isIP, isIPv4, isIPv6, Socket } = net;
