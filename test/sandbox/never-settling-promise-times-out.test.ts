import { timesOutBesideBystander } from './times-out';

timesOutBesideBystander('a promise that never settles', 'hostile-never-settles');
