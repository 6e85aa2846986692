from umtali.cli import main

raise SystemExit(main())
