// Command roman formats integers and parses Roman numerals: roman ARG...
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"example.com/roman"
)

func convert(arg string) (string, error) {
	if n, err := strconv.Atoi(arg); err == nil {
		return roman.Format(n)
	}
	n, err := roman.Parse(arg)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(n), nil
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: roman ARG...")
		return 2
	}
	for _, arg := range args {
		out, err := convert(arg)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, out)
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
