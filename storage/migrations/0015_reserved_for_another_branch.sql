-- A stand-in: migration 15 belongs to a change made on another branch at the same time (0015: a server's own
-- settings; 0016: erasing a member's data), and the numbers must run 1..N without gaps. Delete this file when that
-- branch's 0015 is merged; it creates nothing, so a database that ran it needs nothing undone.
SELECT 1;
