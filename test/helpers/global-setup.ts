// Placeholder until the real-server harness lands: TEST_SERVICES=none skips starting servers.
export default async function globalSetup(): Promise<void> {}
