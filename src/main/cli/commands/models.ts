/**
 * `sightline models [--json]`: the models Sightline knows by name, with the dialect and computer tool each is
 * driven with, its context window, its price where a provider's page gives one, and the day that page was read.
 */
import type { Command } from 'commander';
import { modelCatalog } from '../../llm/model-catalog.js';
import type { CliInvocation } from '../io.js';
import { modelsJson, modelsText } from '../models/models-output.js';
import { jsonHelp } from '../option-help.js';

export function registerModelsCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('models')
    .description('list the models Sightline knows: dialect, computer tool, context window, prices and their sources')
    .option('--json', jsonHelp('every row, with its source page'))
    .action((flags: { json?: boolean }) => {
      const entries = modelCatalog();
      invocation.io.stdout(flags.json === true ? modelsJson(entries) : modelsText(entries));
    });
}
