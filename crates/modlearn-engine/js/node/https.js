// node:https without a network (see network.js).
import { module } from "./network.js";
const https = module("https");
export default https;
export const { request, get, createServer, Agent, globalAgent, STATUS_CODES, METHODS } = https;
