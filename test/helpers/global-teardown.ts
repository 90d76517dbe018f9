import type { TestServices } from './test-services';

export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as { __predexServices?: TestServices }).__predexServices;
  await services?.stop();
}
