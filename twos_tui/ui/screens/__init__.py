"""The app's screens: home, picker, table, help and the dialogs between turns."""
