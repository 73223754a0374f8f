// The API's shapes read off the generated OpenAPI paths (sdk/src/generated/openapi.ts) by path and
// method, as openapi-fetch does: a call names its path as the document writes it
// (`/organizations/{orgId}/webhooks/{id}`), and its parameters, query, body and answer follow.
import type { paths } from '../../sdk/src/generated/openapi.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Every path of the API after `/api/v1`, with its `{param}` placeholders. */
export type ApiPath = keyof paths extends infer K ? K extends `/api/v1${infer P}` ? P : never : never;

type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[`/api/v1${P}`][M]>;

/** The paths that answer a method. */
export type PathWith<M extends Method> = {
  [P in ApiPath]: [Operation<P, M>] extends [never] ? never : P;
}[ApiPath];

/** The names of a path's placeholders: `orgId` | `id` for `/organizations/{orgId}/webhooks/{id}`. */
export type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest>
  : never;

/** The query a route takes, its names checked; the values as a URL holds them (the API validates them). */
export type QueryOf<P extends ApiPath, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never] ? Record<never, never>
  : { [K in keyof NonNullable<Q>]?: string | number | boolean | null }
  : Record<never, never>;

/** The JSON body a route takes. */
export type BodyOf<P extends ApiPath, M extends Method> = Operation<P, M> extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: { 'application/json': infer J } } ? J : never
  : never;

type Success = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : void;

/** The answer of a route's success (200, 201, 202; 204 and other bodiless answers are void). */
export type ResponseOf<P extends ApiPath, M extends Method> = Operation<P, M>['responses'] extends infer R
  ? { [S in keyof R & Success]: JsonOf<R[S]> }[keyof R & Success]
  : never;

/** What a call passes besides its path: the placeholders' values (when it has any), query, body, headers. */
export type CallOptions<P extends ApiPath, M extends Method> =
  & { query?: QueryOf<P, M>; headers?: Record<string, string>; signal?: AbortSignal }
  & ([BodyOf<P, M>] extends [never] ? { body?: undefined } : { body?: BodyOf<P, M> })
  & ([ParamNames<P>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<P>, string> });

/** A call's options as arguments: required when the path has placeholders, optional otherwise. */
export type CallArgs<P extends ApiPath, M extends Method> = [ParamNames<P>] extends [never]
  ? [options?: CallOptions<P, M>]
  : [options: CallOptions<P, M>];
