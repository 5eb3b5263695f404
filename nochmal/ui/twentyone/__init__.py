"""twenty one's own pages of the app: the Start page's form, the Table page, the History's words
(:mod:`nochmal.ui.games` registers them once; the shared pages dispatch through it)."""
