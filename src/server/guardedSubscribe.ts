// The subscribe function of every subscription (SSE through Yoga, WebSocket through graphql-ws):
// the same checks as the guarded execute function (src/server/guardedExecute.ts: the key's
// scopes, the operation's limits), then a place among the key's and the process's subscriptions
// (KEY_MAX_SUBSCRIPTIONS, MAX_SUBSCRIPTIONS), held until the subscription ends. A subscription
// does not wait in its key's line for operations: it holds no operation slot while it lives.
//
// The source stream yields the feed's items (src/events/feed.ts): an event is executed into a
// result, remembered with its sequence (`sequenceOf`, for SSE's `id:`); an end becomes the last
// result, with its error, and the stream completes.
import { createSourceEventStream, execute, GraphQLError, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { Limits } from "../config/limits";
import type { FeedItem } from "../events/feed";
import { ErrorCode, forbidden } from "../errors";
import type { OperationLimitsCheck } from "./operationLimits";
import { mayRun, type NeededScopes } from "./operationScopes";
import { limitRefusalReason, noteOperation, type ObservedContext } from "./observability/requestRecord";

export type Subscribe = (args: ExecutionArgs) => Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;

const sequences = new WeakMap<ExecutionResult, number>();

/** The sequence of the event a subscription's result carries (undefined: a result with no event). */
export const sequenceOf = (result: ExecutionResult): number | undefined => sequences.get(result);

const tooManySubscriptions = (what: string) =>
  new GraphQLError(`Too many subscriptions ${what}: end one first.`, { extensions: { code: ErrorCode.RATE_LIMITED, http: { status: 429 } } });

/** Places for subscriptions, per key and in the process. */
function subscriptionPlaces(limits: Pick<Limits, "keyMaxSubscriptions" | "maxSubscriptions">) {
  const perKey = new Map<number, number>();
  let all = 0;
  return {
    take(keyId: number): GraphQLError | (() => void) {
      const held = perKey.get(keyId) ?? 0;
      if (held >= limits.keyMaxSubscriptions) return tooManySubscriptions("for this key");
      if (all >= limits.maxSubscriptions) return tooManySubscriptions("on this server");
      perKey.set(keyId, held + 1);
      all++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        all--;
        const left = (perKey.get(keyId) ?? 1) - 1;
        if (left === 0) perKey.delete(keyId);
        else perKey.set(keyId, left);
      };
    },
  };
}

/** The results of a subscription's source stream; ending it (return) ends the source at once. */
class Results implements AsyncIterableIterator<ExecutionResult> {
  private done = false;

  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly args: ExecutionArgs,
    private readonly release: () => void,
  ) {}

  async next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.done) return { value: undefined, done: true };
    const next = await this.source.next();
    if (next.done || this.done) return this.finish();
    const item = next.value as FeedItem;
    if ("end" in item) {
      await this.finish();
      return { value: { errors: [item.end] }, done: false };
    }
    const result = (await execute({ ...this.args, rootValue: item })) as ExecutionResult;
    sequences.set(result, item.event.sequence);
    return { value: result, done: false };
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    return this.finish();
  }

  private async finish(): Promise<IteratorResult<ExecutionResult>> {
    if (!this.done) {
      this.done = true;
      this.release();
      await this.source.return?.();
    }
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

export function guardedSubscribe(scopes: NeededScopes, limits: OperationLimitsCheck, settings: Pick<Limits, "keyMaxSubscriptions" | "maxSubscriptions">): Subscribe {
  const places = subscriptionPlaces(settings);
  return async (args) => {
    const { key, requestRecord: record } = args.contextValue as ObservedContext;
    if (record) noteOperation(record, args.document, args.operationName);
    if (!mayRun(key.scopes, scopes(args.document, args.operationName))) {
      if (record) record.refusal = "scope";
      return { errors: [forbidden()] };
    }
    const measured = limits.measure(args.document, args.operationName, args.variableValues);
    if ("refusal" in measured) {
      if (record) record.refusal = limitRefusalReason(measured.refusal);
      return { errors: [measured.refusal] };
    }
    const place = places.take(key.id);
    if (place instanceof GraphQLError) return { errors: [place] };
    try {
      const source = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in source)) {
        place();
        return source;
      }
      return new Results(source[Symbol.asyncIterator](), args, place);
    } catch (error) {
      place();
      throw error;
    }
  };
}
