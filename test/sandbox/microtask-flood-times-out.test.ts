import { timesOutBesideBystander } from './times-out';

timesOutBesideBystander('a microtask flood', 'hostile-microtask-flood');
