"""Many games between bots, above the `Game` API: one record per game
(`records`), the games played serially, in worker processes or as Ray tasks
(`runner`, `ray_backend`), sweeps of options, player counts and line-ups with
resumption (`study`), and the figures a designer reads (`report`)."""
