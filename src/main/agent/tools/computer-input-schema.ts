/**
 * The computer tool's arguments as they really are, for clients that validate against a tool's schema
 * before calling it (MCP's tools/list): one `oneOf` branch per action with that action's required fields
 * and ranges, so that whatever the schema accepts the tool accepts too, and `click` without x and y is
 * refused by the client's validator rather than by the server.
 *
 * Derived from ComputerActionSchema, the zod schema the tool checks with, so the two cannot drift; the
 * rule zod keeps in a refinement (mouse_down's x and y go together) is added here in plain JSON Schema.
 * The model's APIs are shown the flat schema instead (COMPUTER_PARAMETERS): OpenAI wants `type: object`
 * with properties at the top of a function's parameters, and no `oneOf` there.
 */
import { z } from 'zod';
import { ComputerActionSchema } from '../../../shared/actions.js';

type JsonSchema = Record<string, unknown>;

/** Either both of x and y, or neither; written with keywords every JSON Schema draft since 4 knows. */
const POINT_TOGETHER: JsonSchema = {
  anyOf: [{ required: ['x', 'y'] }, { not: { anyOf: [{ required: ['x'] }, { required: ['y'] }] } }],
};

/**
 * The exact schema, with the descriptions of the flat one (`descriptions`: property → what it is for) on
 * each branch's properties.
 */
export function computerInputSchema(descriptions: Record<string, string>): JsonSchema {
  const { $schema: _schema, oneOf } = z.toJSONSchema(ComputerActionSchema, { io: 'input', unrepresentable: 'throw' }) as JsonSchema & {
    oneOf: JsonSchema[];
  };
  // Every action the tool takes, the native tools' mouse_down, mouse_up and hold_key included: a client
  // that reads the schema may use them all.
  const actions = oneOf.map((branch) => (branch.properties as { action: { const: string } }).action.const);
  return {
    type: 'object',
    properties: { action: { type: 'string', enum: actions, description: 'What to do.' } },
    required: ['action'],
    oneOf: oneOf.map((branch) => withPointTogether(withDescriptions(branch, descriptions))),
  };
}

function withDescriptions(branch: JsonSchema, descriptions: Record<string, string>): JsonSchema {
  const properties = branch.properties as Record<string, JsonSchema>;
  const described = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const description = name === 'action' ? undefined : descriptions[name];
      return [name, description === undefined ? property : { ...property, description }];
    }),
  );
  return { ...branch, properties: described };
}

/** A branch whose x and y are both optional gets the rule that they come together (zod's refinement). */
function withPointTogether(branch: JsonSchema): JsonSchema {
  const properties = branch.properties as Record<string, unknown>;
  const required = (branch.required as string[] | undefined) ?? [];
  const optionalPoint = 'x' in properties && 'y' in properties && !required.includes('x') && !required.includes('y');
  return optionalPoint ? { ...branch, ...POINT_TOGETHER } : branch;
}
