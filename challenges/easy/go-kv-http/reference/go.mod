module example.com/kvhttp

go 1.22
