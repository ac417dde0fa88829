import { timesOutBesideBystander } from './times-out';

timesOutBesideBystander('a synchronous infinite loop', 'hostile-sync-loop');
