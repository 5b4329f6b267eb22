/**
 * Argument sets proposed from a JSON schema, to check that a tool accepts what its published schema
 * accepts. The proposals lean to the edges (each bound, each optional field alone and all together, each
 * branch of a oneOf or anyOf); they need not all be valid, so callers keep only those the schema's own
 * validator accepts, and check that enough of them were kept (a generator proposing nothing proves nothing).
 * Covers the keywords our tools' schemas use; `not` and other constraints are left to the validator.
 */
type Schema = Record<string, unknown>;

export function proposeValues(schema: Schema): unknown[] {
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return [...(schema.enum as unknown[])];
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches !== undefined) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...parent } = schema;
    return branches.flatMap((branch) => proposeValues(merged(parent, branch)));
  }
  switch (schema.type) {
    case 'object':
      return proposeObjects(schema);
    case 'array':
      return proposeArrays(schema);
    case 'integer':
      return proposeNumbers(schema, true);
    case 'number':
      return proposeNumbers(schema, false);
    case 'string':
      return proposeStrings(schema);
    case 'boolean':
      return [true, false];
    default:
      return [null, 'text', 1];
  }
}

/** A branch of a oneOf/anyOf with what its parent says around it (properties and required add up). */
function merged(parent: Schema, branch: Schema): Schema {
  const properties = { ...(parent.properties as Schema | undefined), ...(branch.properties as Schema | undefined) };
  const required = [...new Set([...((parent.required as string[] | undefined) ?? []), ...((branch.required as string[] | undefined) ?? [])])];
  return { ...parent, ...branch, type: branch.type ?? parent.type, properties, required };
}

function proposeObjects(schema: Schema): unknown[] {
  const additional = schema.additionalProperties;
  if (typeof additional === 'object' && additional !== null && schema.properties === undefined) return proposeRecords(schema, additional as Schema);
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const base = Object.fromEntries(required.filter((name) => name in properties).map((name) => [name, first(properties[name]!)]));
  const proposals: unknown[] = [base];
  for (const [name, property] of Object.entries(properties)) {
    for (const value of proposeValues(property)) proposals.push({ ...base, [name]: value });
  }
  proposals.push({ ...Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, first(property)])), ...base });
  return proposals;
}

/** A record (`additionalProperties` as a schema): as few and as many entries as allowed, and one more. */
function proposeRecords(schema: Schema, values: Schema): unknown[] {
  const least = (schema.minProperties as number | undefined) ?? 0;
  const most = (schema.maxProperties as number | undefined) ?? 3;
  const counts = [...new Set([least, Math.max(least, 1), most, most + 1])];
  return counts.map((count) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`key_${index}`, first(values)])));
}

function proposeArrays(schema: Schema): unknown[] {
  const items = (schema.items as Schema | undefined) ?? {};
  const least = (schema.minItems as number | undefined) ?? 0;
  const most = (schema.maxItems as number | undefined) ?? 3;
  const lengths = [...new Set([least, Math.max(least, 1), most])];
  return lengths.map((length) => Array.from({ length }, () => first(items)));
}

function proposeNumbers(schema: Schema, integer: boolean): number[] {
  const minimum = schema.minimum as number | undefined;
  const maximum = schema.maximum as number | undefined;
  const low = minimum ?? (integer ? -1000 : -1000.5);
  const high = maximum ?? (integer ? 1000 : 1000.25);
  const middle = integer ? Math.round((low + high) / 2) : (low + high) / 2;
  return [...new Set([low, high, middle, integer ? 0 : 12.5])];
}

function proposeStrings(schema: Schema): string[] {
  const least = Math.max((schema.minLength as number | undefined) ?? 0, 1);
  const most = (schema.maxLength as number | undefined) ?? 24;
  return [...new Set(['s'.repeat(least), 's'.repeat(most)])];
}

function first(schema: Schema): unknown {
  return proposeValues(schema)[0];
}
