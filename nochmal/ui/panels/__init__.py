"""The panels of the game screens, one module for each thing they show: the dice (:mod:`.dice`),
the cell grid (:mod:`.cell_grid`) and the move entry around it (:mod:`.move_entry`), the seats'
sheets (:mod:`.seats`), the co-op turn track (:mod:`.track`), team penalty decisions
(:mod:`.decision`), the mission (:mod:`.mission`), the end of the game (:mod:`.outcome`), the
advisor (:mod:`.advisor`), the team plan (:mod:`.team_plan`), undo and live updates
(:mod:`.undo`), and joining a game from another device (:mod:`.join`).

Panels draw a position and offer controls; every change goes through
:func:`nochmal.ui.actions.run_action`.
"""
