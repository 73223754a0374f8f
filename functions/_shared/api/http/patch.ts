/** The fields a PATCH body gives, of those named in `keys`: a field left out (undefined) stays as it is. */
export function fieldsGiven<P extends object>(patch: P, keys: readonly (keyof P & string)[]): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const key of keys) if (patch[key] !== undefined) given[key] = patch[key];
  return given;
}
