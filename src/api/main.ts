import { jwtSettingsOf } from '../auth/jwt-settings';
import { loadApiConfig, ConfigError } from '../config';
import { createLogger } from '../logging/logger';
import { startStageTimings } from '../logging/stage-timings';
import { readingChainPortFromConfig } from '../runtime/chain-from-config';
import { databaseFromConfig } from '../runtime/database-from-config';
import { temporalAddressOf } from '../runtime/endpoints';
import { onShutdown } from '../runtime/shutdown';
import { connectTemporal } from '../temporal/connect';
import { composeApi } from '../runtime/compose-api';
import { exitWithSupervisor } from '../supervisor/exit-with-supervisor';
import { startApiServer } from './server';

/** The API process: REST under /v1 and socket.io under /v1/ws. */
async function main(): Promise<void> {
  exitWithSupervisor();
  // Without OPERATOR_PRIVATE_KEY: the worker signs every chain write (src/temporal/condition-preparer.client.ts).
  const config = loadApiConfig();
  // Refused before anything starts: an identity provider without audience and issuer.
  jwtSettingsOf(config);
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  const stopTimings = startStageTimings(logger, config.STAGE_TIMINGS_S);
  const chain = readingChainPortFromConfig(config);
  const db = await databaseFromConfig(config, logger);
  const temporal = await connectTemporal(temporalAddressOf(config), config.TEMPORAL_NAMESPACE);
  const composition = await composeApi(config, { db, temporal, chain, logger });
  const api = await startApiServer({ host: config.HOST, port: config.PORT, logger, ...composition });
  logger.info({ url: api.url }, 'API listening');
  onShutdown(logger, async () => {
    await api.close();
    await composition.close();
    await temporal.close();
    await db.close();
    stopTimings();
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`API failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
