// What the app answers: a plain reply (REST, known queries, refusals), or a fetch Response (Yoga,
// GraphiQL, the public endpoints).
import type { Reply } from "../rest/responses";

export type Answer = Reply | Response;

export const isReply = (answer: Answer): answer is Reply => typeof (answer as Response).arrayBuffer !== "function";
