import { timesOutBesideBystander } from './times-out';

timesOutBesideBystander('a view that never returns', 'hostile-slow-template');
