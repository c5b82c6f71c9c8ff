// Every page of the site sends what waits in this device's offline queue
// (agon/offline_queue.js): an entry typed without signal goes when the signal returns,
// on whichever page is open then, not only on the page it was typed on. Importing the
// queue is all it takes: it sends at once, on `online` and every 30 s.
import "./offline_queue.js";
