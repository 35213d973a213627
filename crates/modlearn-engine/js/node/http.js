// node:http without a network (see network.js).
import { module } from "./network.js";
const http = module("http");
export default http;
export const { request, get, createServer, Agent, globalAgent, STATUS_CODES, METHODS } = http;
