// The worker threads' entry (see pool.ts). The sources are TypeScript, loaded through tsx as in the main thread:
// a worker does not inherit loader hooks registered in the main thread by `npm start`.
import { register } from 'tsx/esm/api';

register();
const { runTask } = await import('./tasks.ts');

export default runTask;
