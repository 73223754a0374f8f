// The operations of the served OpenAPI document, for tests that send something to every route:
// a route is covered the day it is declared.

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The JSON body's top-level properties, or null when the operation takes no body. */
  bodyProperties: string[] | null;
}

export function operations(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p: any) => p.in === 'path').map((p: any) => p.name),
        queryParams: params.filter((p: any) => p.in === 'query').map((p: any) => p.name),
        bodyProperties: op.requestBody ? Object.keys(resolved?.properties ?? {}) : null,
      });
    }
  }
  return ops;
}
